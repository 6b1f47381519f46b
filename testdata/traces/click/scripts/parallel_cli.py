from concurrent.futures import ProcessPoolExecutor

import click


def process(ctx, name):
    return f"{name}: {ctx.obj['mode']}"


@click.command()
@click.argument("names", nargs=-1)
@click.pass_context
def batch(ctx, names):
    ctx.obj = {"mode": "fast"}
    with ProcessPoolExecutor(max_workers=2) as pool:
        for line in pool.map(process, [ctx] * len(names), names):
            click.echo(line)


if __name__ == "__main__":
    batch()
