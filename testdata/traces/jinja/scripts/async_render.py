import asyncio

from jinja2 import Environment, DictLoader

env = Environment(
    loader=DictLoader({"hello.txt": "Hello {{ name }}!"}),
    enable_async=True,
)


async def handler(name):
    tpl = env.get_template("hello.txt")
    return tpl.render(name=name)


print(asyncio.run(handler("world")))
