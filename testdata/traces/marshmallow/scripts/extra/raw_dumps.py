from datetime import datetime

from marshmallow import Schema, fields


class AuditSchema(Schema):
    action = fields.Str()
    meta = fields.Raw()


entry = {"action": "login", "meta": {"at": datetime(2024, 5, 1, 9, 0), "ip": "10.0.0.1"}}
print(AuditSchema().dumps(entry))
