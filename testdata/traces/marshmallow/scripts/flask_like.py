from marshmallow import Schema, ValidationError, fields


class TodoSchema(Schema):
    title = fields.Str(required=True)
    done = fields.Bool(load_default=False)


def create_todo(raw_body: bytes):
    try:
        todo = TodoSchema().loads(raw_body)
    except ValidationError as err:
        return {"errors": err.messages}, 422
    return todo, 201


# client sent a trailing comma
print(create_todo(b'{"title": "buy milk", "done": true,}'))
