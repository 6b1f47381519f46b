import asyncio

from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_fixed


async def fetch(host):
    reader, writer = await asyncio.open_connection(host, 59999)
    writer.close()


@retry(retry=retry_if_exception_type(ConnectionError), stop=stop_after_attempt(3), wait=wait_fixed(0.1))
async def fetch_all(hosts):
    async with asyncio.TaskGroup() as tg:
        for h in hosts:
            tg.create_task(fetch(h))


asyncio.run(fetch_all(["127.0.0.1", "localhost"]))
