from marshmallow import Schema, fields


class OrderSchema(Schema):
    id = fields.Int()
    customer = fields.Nested("CustomerSchema")
    total = fields.Decimal(places=2)


print(OrderSchema().load({"id": 1, "customer": {"name": "Ana"}, "total": "12.50"}))
