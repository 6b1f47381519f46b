from marshmallow import Schema, fields


class ConfigSchema(Schema):
    host = fields.Str(required=True, load_default="localhost")
    port = fields.Int(load_default=5432)


print(ConfigSchema().load({}))
