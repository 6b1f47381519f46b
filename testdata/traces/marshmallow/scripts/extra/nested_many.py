from marshmallow import Schema, fields


class LineSchema(Schema):
    sku = fields.Str(required=True)
    qty = fields.Int(required=True)


class CartSchema(Schema):
    lines = fields.Nested(LineSchema, many=True)


print(CartSchema().load({"lines": {"sku": "KB-01", "qty": 1}}))
