import httpx


def check(resp: httpx.Response) -> dict:
    resp.raise_for_status()
    return resp.json()


# quick unit test with a hand-built response
fake = httpx.Response(200, json={"ok": True})
assert check(fake) == {"ok": True}
