from dataclasses import dataclass

from marshmallow import Schema, fields, post_load


@dataclass
class User:
    name: str
    email: str


class UserSchema(Schema):
    name = fields.Str()
    email = fields.Email()

    @post_load
    def make_user(self, data):
        return User(**data)


print(UserSchema().load({"name": "Ana", "email": "ana@example.com"}))
