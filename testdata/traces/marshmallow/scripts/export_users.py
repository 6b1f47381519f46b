from marshmallow import Schema, fields


class User:
    def __init__(self, name, created_at):
        self.name = name
        self.created_at = created_at


class UserSchema(Schema):
    name = fields.Str()
    created_at = fields.DateTime()


# rows come straight from the CSV export
users = [User("ana", "2024-05-01T10:00:00"), User("bo", "2024-05-02T11:30:00")]
print(UserSchema(many=True).dump(users))
