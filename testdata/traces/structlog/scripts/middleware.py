import asyncio

import structlog
from structlog.contextvars import bind_contextvars, reset_contextvars

log = structlog.get_logger()


async def before_request(request_id):
    return bind_contextvars(request_id=request_id)


async def after_request(tokens):
    reset_contextvars(**tokens)


async def handle(request_id):
    tokens = await asyncio.create_task(before_request(request_id))
    log.info("handling")
    await asyncio.create_task(after_request(tokens))


asyncio.run(handle("req-1"))
