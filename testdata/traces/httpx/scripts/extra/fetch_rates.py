import httpx

RATES_URL = "http://127.0.0.1:8081/v1/rates"


def fetch_rates(base="EUR"):
    r = httpx.get(RATES_URL, params={"base": base})
    r.raise_for_status()
    return r.json()


if __name__ == "__main__":
    print(fetch_rates())
