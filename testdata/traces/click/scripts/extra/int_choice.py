import click


@click.command()
@click.option("--level", type=click.Choice([1, 2, 3]), default=1)
def setlevel(level):
    click.echo(f"level {level}")


if __name__ == "__main__":
    setlevel()
