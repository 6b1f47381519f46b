from tenacity import retry, stop_after_attempt


@retry(stop=stop_after_attempt(2), reraise=True)
def ping():
    return "pong"


ping()
print(ping.statistics["attempt_number"])
