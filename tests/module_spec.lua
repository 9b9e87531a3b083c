describe("lumba module", function()
  it("loads with a version and the cuda table", function()
    local lumba = require "lumba"
    assert.is_string(lumba.version)
    assert.is_table(lumba.cuda)
  end)
end)
