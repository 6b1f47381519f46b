import logging

from tenacity import retry, stop_after_attempt, before_sleep_log

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("billing")


@retry(stop=stop_after_attempt(3), before_sleep=before_sleep_log(log))
def charge(card):
    raise IOError("gateway unavailable")


charge("4242")
