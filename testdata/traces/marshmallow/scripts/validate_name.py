from marshmallow import Schema, ValidationError, fields, validates


class ProductSchema(Schema):
    name = fields.Str(required=True)
    price = fields.Float(required=True)

    @validates("title")
    def validate_title(self, value):
        if not value.strip():
            raise ValidationError("Title must not be blank.")


print(ProductSchema().load({"name": "Lamp", "price": 19.9}))
