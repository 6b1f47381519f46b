from tenacity import retry, stop_after_attempt, wait_fixed, wait_random


@retry(stop=stop_after_attempt(3), wait=wait_fixed(0.1) + wait_random(0, 0.1) + "0.5")
def refresh_token():
    raise PermissionError("token endpoint returned 401")


refresh_token()
