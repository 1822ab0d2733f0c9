import PreflightCLI

PreflightCommand.main()
