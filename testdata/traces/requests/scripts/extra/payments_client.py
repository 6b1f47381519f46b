import requests

PAYMENTS_HOST = "http://127.0.0.1:8089"


def charge(customer_id, cents):
    return requests.post(
        f"{PAYMENTS_HOST}/v1/charges",
        json={"customer": customer_id, "amount": cents},
        timeout=(2, 10),
    )


if __name__ == "__main__":
    print(charge("cus_123", 1999).status_code)
