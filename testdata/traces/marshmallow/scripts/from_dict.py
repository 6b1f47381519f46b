from marshmallow import Schema, fields

PersonSchema = Schema.from_dict({"name": fields.Str, "age": fields.Int})
print(PersonSchema().load({"name": "Ana", "age": 31}))
