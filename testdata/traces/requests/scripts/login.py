import requests

session = requests.Session()


def login(username, password):
    resp = session.post(
        "http://localhost:8000/api/v1/login",
        data={"username": username, "password": password},
    )
    token = resp.json()["token"]
    session.headers["Authorization"] = f"Bearer {token}"
    return token


if __name__ == "__main__":
    print(login("admin", "hunter2"))
