import structlog

log = structlog.get_logger()


def handle(order):
    log.info("order received", event="checkout", order_id=order["id"])


handle({"id": 1234})
