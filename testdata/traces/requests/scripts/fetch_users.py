import os
import requests

API_BASE = os.environ.get("API_BASE", "api.internal.example.com/v2")


def list_users(page=1):
    resp = requests.get(f"{API_BASE}/users", params={"page": page})
    resp.raise_for_status()
    return resp.json()


if __name__ == "__main__":
    for user in list_users():
        print(user["email"])
