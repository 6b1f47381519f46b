import click


@click.group(chain=True)
def pipeline():
    pass


@pipeline.command()
@click.argument("src")
def load(src):
    return src


@pipeline.group()
def transform():
    pass


if __name__ == "__main__":
    pipeline()
