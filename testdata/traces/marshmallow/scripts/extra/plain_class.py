from marshmallow import fields


class CommentSchema:
    author = fields.Str(required=True)
    body = fields.Str(required=True)


print(CommentSchema().load({"author": "ana", "body": "hi"}))
