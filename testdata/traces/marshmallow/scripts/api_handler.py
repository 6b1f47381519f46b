import json

from marshmallow import Schema, fields


class ItemSchema(Schema):
    name = fields.Str(required=True)
    qty = fields.Int(required=True)


def handle(body: str):
    return ItemSchema().load(body)


request_body = json.dumps({"name": "Lamp", "qty": 2})
print(handle(request_body))
