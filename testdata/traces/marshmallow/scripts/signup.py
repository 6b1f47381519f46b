from marshmallow import Schema, fields


class SignupSchema(Schema):
    email = fields.Email(required=True)
    password = fields.Str(required=True)
    age = fields.Int()


payload = {"email": "ana(at)example.com", "age": "twenty"}
data = SignupSchema().load(payload)
print(data)
