import datetime
import json

import attrs


@attrs.define
class Event:
    name: str
    at: datetime.datetime


def to_json(value):
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    return value


ev = Event("deploy", datetime.datetime(2023, 5, 1, 12, 0))
print(json.dumps(attrs.asdict(ev, value_serializer=to_json)))
