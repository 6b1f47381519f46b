import requests

METRICS_ENDPOINT = "http://localhost:8000/metrics"


def push(batch_size, retries):
    headers = {
        "Content-Type": "application/json",
        "X-Batch-Size": batch_size,
        "X-Retries": retries,
    }
    return requests.post(METRICS_ENDPOINT, headers=headers, json={"cpu": 0.42}, timeout=5)


if __name__ == "__main__":
    print(push(50, 3).status_code)
