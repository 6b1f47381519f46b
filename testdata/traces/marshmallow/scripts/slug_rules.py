from marshmallow import Schema, fields, validate


class PageSchema(Schema):
    title = fields.Str(required=True)
    slug = fields.Str(validate=validate.Regexp(r"^[a-z0-9-+$"))


print(PageSchema().load({"title": "About", "slug": "about-us"}))
