import os

from tenacity import retry, stop_after_attempt, wait_fixed

MAX_ATTEMPTS = os.environ.get("MAX_ATTEMPTS", "3")


@retry(stop=stop_after_attempt(MAX_ATTEMPTS), wait=wait_fixed(0.1))
def publish(msg):
    raise BrokenPipeError("broker connection lost")


publish({"event": "created"})
