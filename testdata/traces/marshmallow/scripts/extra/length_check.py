from marshmallow import Schema, fields, validate


class PinSchema(Schema):
    pin = fields.Int(required=True, validate=validate.Length(equal=4))


print(PinSchema().load({"pin": 1234}))
