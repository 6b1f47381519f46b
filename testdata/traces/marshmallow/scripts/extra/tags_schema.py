from marshmallow import Schema, fields


class ArticleSchema(Schema):
    title = fields.Str()
    tags = fields.List("String")


print(ArticleSchema().load({"title": "x", "tags": ["a", "b"]}))
