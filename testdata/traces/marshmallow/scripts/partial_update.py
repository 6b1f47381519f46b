from marshmallow import Schema, fields


class ProfileSchema(Schema):
    name = fields.Str(required=True)
    bio = fields.Str(required=True)


patch = {"bio": "Python developer"}
print(ProfileSchema().load(patch, partial="name"))
