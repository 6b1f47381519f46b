from enum import Enum

from marshmallow import Schema, fields


class Status(Enum):
    ACTIVE = "active"
    SUSPENDED = "suspended"


class MemberSchema(Schema):
    name = fields.Str()
    status = fields.Enum(Status, by_value=True)


print(MemberSchema().load({"name": "ana", "status": "banned"}))
