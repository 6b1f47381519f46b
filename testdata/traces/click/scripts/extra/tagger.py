import click


@click.command()
@click.option("--tag", "-t", "tags", nargs=-1, help="Tags to apply.")
def tagger(tags):
    click.echo(", ".join(tags))


if __name__ == "__main__":
    tagger()
