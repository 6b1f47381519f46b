import click


@click.command()
def wizard():
    click.echo("Continue? [y/n] ", nl=False)
    c = click.getchar()
    click.echo()
    if c.lower() == "y":
        click.echo("continuing")


if __name__ == "__main__":
    wizard()
