from marshmallow import Schema, fields, validate


class ShipmentSchema(Schema):
    carrier = fields.Str(validate=validate.OneOf("ups", "fedex", "dhl"))


print(ShipmentSchema().load({"carrier": "ups"}))
