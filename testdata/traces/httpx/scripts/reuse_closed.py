import httpx


def make_client():
    with httpx.Client(base_url="http://localhost:8000", timeout=5) as client:
        return client


api = make_client()
print(api.get("/json/ping").json())
