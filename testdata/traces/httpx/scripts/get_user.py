import httpx


def get_user(user_id: int) -> dict:
    response = httpx.get(f"http://localhost:8000/users/{user_id}")
    response.raise_for_status()
    return response.json()


print(get_user(42))
