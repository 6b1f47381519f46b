import pickle

from marshmallow import Schema, fields


class JobSchema(Schema):
    name = fields.Str()
    retries = fields.Int(load_default=lambda: 3)


# the task queue pickles its arguments
payload = pickle.dumps({"schema": JobSchema(), "data": {"name": "reindex"}})
print(len(payload))
