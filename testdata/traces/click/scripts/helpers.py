import click


def log(msg):
    ctx = click.get_current_context()
    if ctx.obj and ctx.obj.get("verbose"):
        click.echo(msg, err=True)


@click.command()
@click.option("--verbose", is_flag=True)
@click.pass_context
def main(ctx, verbose):
    ctx.obj = {"verbose": verbose}
    log("starting")


if __name__ == "__main__":
    log("module loaded")
    main()
