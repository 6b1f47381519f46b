from marshmallow import Schema, fields


class Invoice:
    def __init__(self, number, amount):
        self.number = number
        self.amount = amount


class InvoiceSchema(Schema):
    number = fields.Str()
    amount = fields.Float()


invoice = Invoice("INV-1", 99.5)
print(InvoiceSchema(many=True).dump(invoice))
