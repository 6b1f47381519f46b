from marshmallow import Schema, fields


class EventSchema(Schema):
    id = fields.Str(required=True)
    type = fields.Str(required=True)


incoming = {"id": "evt_1", "type": "invoice.paid", "livemode": False, "created": 1716200000}
print(EventSchema().load(incoming))
