import os
from multiprocessing import Pool

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")))


def render_one(args):
    template, ctx = args
    return template.render(**ctx)


if __name__ == "__main__":
    tpl = env.get_template("base.html")
    jobs = [(tpl, {"n": i}) for i in range(4)]
    with Pool(2) as pool:
        pages = pool.map(render_one, jobs)
    print(len(pages))
