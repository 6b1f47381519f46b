from marshmallow import Schema, fields


class AccountSchema(Schema):
    id = fields.Int()
    username = fields.Str()
    email = fields.Email()


public = AccountSchema(only=("id", "user_name"))
print(public.dump({"id": 1, "username": "ana", "email": "a@example.com"}))
