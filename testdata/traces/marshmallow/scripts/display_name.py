from marshmallow import Schema, fields


class Member:
    def __init__(self, first, last=None):
        self.first = first
        if last:
            self.last = last


class MemberSchema(Schema):
    display = fields.Function(lambda m: f"{m.first} {m.last}")


members = [Member("Ana", "Lima"), Member("Prince")]
print(MemberSchema(many=True).dump(members))
