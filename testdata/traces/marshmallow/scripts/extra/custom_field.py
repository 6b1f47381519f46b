from marshmallow import Schema, fields


class CommaList(fields.Field):
    def _deserialize(self, value, attr, data):
        return [v.strip() for v in value.split(",")]


class FilterSchema(Schema):
    tags = CommaList()


print(FilterSchema().load({"tags": "a, b, c"}))
