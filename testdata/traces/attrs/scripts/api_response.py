import dataclasses
import json

from attrs import define


@define
class ApiResponse:
    status: int
    body: dict


def render(resp):
    return json.dumps(dataclasses.asdict(resp))


print(render(ApiResponse(200, {"ok": True})))
