import asyncio

from marshmallow import Schema, fields


class SignupSchema(Schema):
    email = fields.Email(required=True)
    name = fields.Str(required=True)


async def signup_handler(body: dict):
    data = await SignupSchema().load(body)
    return {"created": data["email"]}


print(asyncio.run(signup_handler({"email": "ana@example.com", "name": "Ana"})))
