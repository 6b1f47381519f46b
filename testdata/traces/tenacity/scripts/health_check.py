import urllib.request

from tenacity import retry, stop_after_attempt, wait_exponential


@retry(stop=stop_after_attempt(4), wait=wait_exponential(multiplier=0.1, max=1))
def wait_for_service(url):
    with urllib.request.urlopen(url, timeout=2) as resp:
        return resp.status


if __name__ == "__main__":
    wait_for_service("http://127.0.0.1:59999/healthz")
