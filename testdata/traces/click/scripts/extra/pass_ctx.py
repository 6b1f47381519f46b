import click


@click.command()
@click.option("--count", default=1)
@click.pass_context
def repeat(count):
    for _ in range(count):
        click.echo("hello")


if __name__ == "__main__":
    repeat()
