from marshmallow import Schema, ValidationError, fields, validates_schema


class RangeSchema(Schema):
    start = fields.Date(required=True)
    end = fields.Date(required=True)

    @validates_schema
    def check_order(self, data):
        if data["start"] > data["end"]:
            raise ValidationError("start must be before end", "start")


print(RangeSchema().load({"start": "2024-05-10", "end": "2024-05-01"}))
