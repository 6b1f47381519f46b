from decimal import Decimal

from marshmallow import Schema, fields


class PriceSchema(Schema):
    sku = fields.Str()
    amount = fields.Decimal(places=2)


print(PriceSchema().dumps({"sku": "KB-01", "amount": Decimal("29.90")}))
