from datetime import datetime

import requests


def create_event(title):
    payload = {"title": title, "starts_at": datetime(2024, 5, 17, 9, 30)}
    r = requests.post("http://localhost:8000/events", json=payload, timeout=5)
    return r.status_code


if __name__ == "__main__":
    print(create_event("Quarterly planning"))
