import requests

BASE = "http://localhost:8000"


def get_order(order_id):
    r = requests.get(f"{BASE}/orders/{order_id}", timeout=10)
    r.raise_for_status()
    return r.json()


if __name__ == "__main__":
    print(get_order(1042))
